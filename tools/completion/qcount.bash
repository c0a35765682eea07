# SPDX-License-Identifier: MIT
# qcount.bash — bash completion for qcount: its options, the engine names,
# the formats, and file names where an option takes a file.  Needs
# bash alone (not the bash-completion package's helpers).
_qcount()
{
    local cur=${COMP_WORDS[COMP_CWORD]} prev=
    [[ $COMP_CWORD -gt 0 ]] && prev=${COMP_WORDS[COMP_CWORD-1]}
    # '=' breaks words in bash: --engine=jo arrives as --engine, =, jo
    if [[ $cur == = ]]; then
        cur=
    elif [[ $prev == = && $COMP_CWORD -ge 2 ]]; then
        prev=${COMP_WORDS[COMP_CWORD-2]}
    fi
    COMPREPLY=()
    case $prev in
        -e | --engine)
            COMPREPLY=($(compgen -W 'join eightfold halving dlx brute' -- "$cur"))
            return ;;
        --format)
            COMPREPLY=($(compgen -W 'cols board bfile' -- "$cur"))
            return ;;
        --checkpoint | --svg)
            compopt -o filenames 2>/dev/null
            COMPREPLY=($(compgen -f -- "$cur"))
            return ;;
        -t | --threads | --limit | --svg-per-row | --svg-square | --svg-colors | --seed)
            return ;;              # a number or colours: nothing to offer
    esac
    if [[ $cur == -* ]]; then
        COMPREPLY=($(compgen -W '-t --threads= --no-bind --smt -e --engine= -u --unique
            -s --stats -j --json -c --check --checkpoint= --progress -q --quiet --list
            --limit= --format= --svg= --svg-per-row= --svg-square= --svg-colors=
            --solve --random --seed= --verify -h --help -V --version' -- "$cur"))
        [[ ${#COMPREPLY[@]} -eq 1 && ${COMPREPLY[0]} == *= ]] && compopt -o nospace 2>/dev/null
    fi
    return 0
}
complete -F _qcount qcount
