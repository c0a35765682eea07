/* SPDX-License-Identifier: MIT */
/*
 * commands.c — the ledger commands' dispatch (ledger_commands.h): the
 * word names the command, one a file (ledgers.h), with unit, which
 * describes what a ledger's unit stands for.
 */
#include <string.h>

#include "ledger_commands.h"
#include "ledgers.h"

static const struct {
    const char *name;
    int (*main)(int argc, char **argv);
} commands[] = {
    {"merge", qcl_merge_main},
    {"audit", qcl_audit_main},
    {"show", qcl_show_main},
    {"status", qcl_status_main},
    {"unit", qcl_unit_main},
};

int qcl_command_named(const char *word)
{
    for (size_t i = 0; i < sizeof commands / sizeof *commands; i++)
        if (strcmp(word, commands[i].name) == 0)
            return 1;
    return 0;
}

int qcl_command(int argc, char **argv)
{
    for (size_t i = 0; i < sizeof commands / sizeof *commands; i++)
        if (strcmp(argv[0], commands[i].name) == 0)
            return commands[i].main(argc, argv);
    return 2;
}
