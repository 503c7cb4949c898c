/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * config.c: the words of the settings (config.h), shared by the parser
 * that reads them, the rooms that act on them and the reports that print
 * them: the load kinds, the scheduling policies, the workload's command
 * as a user would type it; and freeing a config.
 */
#include <sched.h>
#include <stdlib.h>
#include <string.h>

#include "config.h"

/* Indexed by enum load_kind. */
static const struct {
	const char	*name;
	const char	*unit;		/* what one operation is */
	unsigned	 per;		/* processes for each one of N */
} kinds[] = {
	{ "none",	"",			0 },
	{ "cpu",	"increments",		1 },
	{ "syscall",	"getppid calls",	1 },
	{ "yield",	"sched_yield calls",	1 },
	{ "fork",	"fork+exec+waits",	1 },
	{ "pipe",	"token passes",		2 },
	{ "mem",	"64-byte lines",	1 },
};
#define NKINDS	(sizeof(kinds) / sizeof(kinds[0]))

static const struct {
	const char	*name;
	int		 policy;
} policies[] = {
	{ "other", SCHED_OTHER }, { "batch", SCHED_BATCH },
	{ "idle", SCHED_IDLE }, { "fifo", SCHED_FIFO },
	{ "rr", SCHED_RR }, { "deadline", SCHED_DEADLINE },
};
#define NPOLICIES	(sizeof(policies) / sizeof(policies[0]))

int
config_load_find(const char *name, size_t len)
{
	size_t i;

	for (i = 0; i < NKINDS; i++)
		if (strlen(kinds[i].name) == len &&
		    strncmp(kinds[i].name, name, len) == 0)
			return (int)i;
	return -1;
}

const char *
config_load_name(enum load_kind k)
{
	return (size_t)k < NKINDS ? kinds[k].name : "?";
}

const char *
config_load_unit(enum load_kind k)
{
	return (size_t)k < NKINDS ? kinds[k].unit : "?";
}

unsigned
config_load_nproc(enum load_kind k, unsigned n)
{
	return (size_t)k < NKINDS ? kinds[k].per * n : 0;
}

int
config_policy_find(const char *name)
{
	size_t i;

	for (i = 0; i < NPOLICIES; i++)
		if (strcmp(name, policies[i].name) == 0)
			return policies[i].policy;
	return -1;
}

const char *
config_policy_name(int policy)
{
	size_t i;

	for (i = 0; i < NPOLICIES; i++)
		if (policies[i].policy == policy)
			return policies[i].name;
	return "?";
}

char *
config_command(const struct config *cfg)
{
	size_t len = 1, i;
	char *buf, *p;
	const char *s;
	int quote;

	for (i = 0; i < (size_t)cfg->ncmd; i++)
		len += 3 + 4 * strlen(cfg->cmd[i]);
	if ((buf = p = malloc(len)) == NULL)
		return NULL;
	*buf = '\0';
	if (cfg->ncmd == 1) {
		strcpy(buf, cfg->cmd[0]);
		return buf;
	}
	for (i = 0; i < (size_t)cfg->ncmd; i++) {
		s = cfg->cmd[i];
		quote = *s == '\0' ||
		    s[strcspn(s, " \t\n\\'\"$`*?[]{}()<>|&;#~!")];
		if (i > 0)
			*p++ = ' ';
		if (quote)
			*p++ = '\'';
		for (; *s != '\0'; s++) {
			if (*s == '\'' && quote) {
				memcpy(p, "'\\''", 4);
				p += 4;
			} else
				*p++ = *s;
		}
		if (quote)
			*p++ = '\'';
	}
	*p = '\0';
	return buf;
}

void
config_free(struct config *cfg)
{
	unsigned i;

	for (i = 0; i < cfg->nclasses; i++)
		free(cfg->classes[i].cpus);
	free(cfg->classes);
	free(cfg->class_of);
	free(cfg->cpus);
	for (i = 0; i < cfg->nload; i++)
		free(cfg->load[i].cpus);
}
