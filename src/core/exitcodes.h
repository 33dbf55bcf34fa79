/* SPDX-License-Identifier: GPL-2.0 */
/*
 * exitcodes: the one table of exit codes and their causes (enum
 * swapctl_exit in swapctl.h), which every command's --help prints from
 * (the codes it can return) and swapctl(1)'s EXIT STATUS states in full.
 * tests/integration/test_hostile.py checks the three agree;
 * tests/integration/test_exitcodes.py is the audit: each cause run
 * against every command that can meet it, and each --help listing what
 * its command returned.
 */
#ifndef SWAPCTL_EXITCODES_H
#define SWAPCTL_EXITCODES_H

#include <stdio.h>

/* The cause of exit code @code, one short line; NULL for no code of ours. */
const char *exit_cause(int code);

/*
 * "exit codes (swapctl(1), EXIT STATUS):" and one line per code of
 * @codes (ended by -1), each with its cause.
 */
void exit_codes_print(FILE *out, const int *codes);

#endif
