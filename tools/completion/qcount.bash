# SPDX-License-Identifier: MIT
# qcount.bash — bash completion for qcount: its options, the engine names,
# the formats, and file names where an option takes a file; the ledger
# commands (merge, audit, show, status), their options and ledger files;
# unit and its options.  Needs
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
    local command=${COMP_WORDS[1]}
    if [[ $COMP_CWORD -gt 1 && $command == unit ]]; then
        [[ $cur == -* ]] && COMPREPLY=($(compgen -W '--plan= --all --json --help' -- "$cur"))
        [[ ${#COMPREPLY[@]} -eq 1 && ${COMPREPLY[0]} == *= ]] && compopt -o nospace 2>/dev/null
        return 0                   # N, U and P are numbers: nothing to offer
    fi
    if [[ $COMP_CWORD -gt 1 && ( $command == merge || $command == audit || $command == show
                                || $command == status ) ]]; then
        case $prev in
            --sample | --seed | -t | --threads | --stale | --window | --now | --refresh)
                return ;;          # a number: nothing to offer
            --by)
                [[ $command == audit ]] && COMPREPLY=($(compgen -W 'levels backtrack' -- "$cur"))
                return ;;
        esac
        if [[ $cur == -* ]]; then
            local words='--json --help'
            [[ $command == audit ]] && words='--sample= --seed= --threads= --by= --help'
            [[ $command == status ]] && words='--json --html= --refresh= --stale= --window= --now= --help'
            COMPREPLY=($(compgen -W "$words" -- "$cur"))
            [[ ${#COMPREPLY[@]} -eq 1 && ${COMPREPLY[0]} == *= ]] && compopt -o nospace 2>/dev/null
        else
            compopt -o filenames 2>/dev/null
            COMPREPLY=($(compgen -f -- "$cur"))
        fi
        return 0
    fi
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
        -t | --threads | --limit | --svg-per-row | --svg-square | --svg-colors | --seed | --part | --plan)
            return ;;              # a number or colours: nothing to offer
    esac
    if [[ $cur == -* ]]; then
        COMPREPLY=($(compgen -W '-t --threads= --no-bind --smt -e --engine= --plan= -u --unique
            -s --stats -j --json -c --check --checkpoint= --part= --progress -q --quiet --list
            --limit= --format= --svg= --svg-per-row= --svg-square= --svg-colors=
            --solve --random --seed= --verify -h --help -V --version' -- "$cur"))
        [[ ${#COMPREPLY[@]} -eq 1 && ${COMPREPLY[0]} == *= ]] && compopt -o nospace 2>/dev/null
    elif [[ $COMP_CWORD -eq 1 ]]; then
        COMPREPLY=($(compgen -W 'merge audit show status unit' -- "$cur"))
    fi
    return 0
}
complete -F _qcount qcount
