/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * command.h: the API of command.c, which checks the workload's command
 * before anything runs: the program it would run is found as sh or
 * execvp would find it.
 */
#ifndef COMMAND_H
#define COMMAND_H

/* Options whose value, given bare, may have been meant as their value. */
#define CMD_JSON_BARE		1	/* --json without =FILE */
#define CMD_EXPLAIN_BARE	2	/* --explain without =K */
#define CMD_KTAP_BARE		4	/* --ktap without =FILE */

/*
 * The words left after the options (ncmd: one is a /bin/sh -c string,
 * more an argument vector), checked before anything runs.  An empty
 * command, and a word meant as a bare option's value (bare: CMD_*; the
 * "--json run.json" trap), are usage errors.  A command whose program is
 * not found ends latt with one line and status 127, one found but not
 * executable with 126, as a shell would; not found with one of latt's
 * options after it (is_option), it is a usage error that says options
 * go before the command.
 */
void	 command_take(char *const *cmd, int ncmd, int bare,
	    int (*is_option)(const char *));

#endif /* COMMAND_H */
