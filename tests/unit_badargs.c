/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * unit_badargs: the usage errors that tests/t_runcontrol.sh and
 * tests/t_faults.sh ran through ./latt, a process and a fifth of a second
 * each on a loaded machine: the run-control options (--duration,
 * --samples, --warmup, --cpus, --parent-cpu, --policy, --prio, --nice,
 * --seed, --fail-above) and arguments with odd bytes (not UTF-8, 5000
 * digits, 5000 letters, dashes, a newline, an empty command).  Each is
 * refused by options_parse in a child (unit_exits), as latt's main calls
 * it: exit 2, nothing on stdout, and on stderr exactly two lines, "latt:
 * MESSAGE" (MESSAGE starting with the case's text) and "try 'latt
 * --help'".  Each script keeps one case through ./latt, for the path to
 * the user.
 */
#include <sys/stat.h>
#include <sys/types.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/options.h"
#include "config.h"
#include "tests/unit.h"

#define MAXARGS		8		/* words of a case, after "latt" */
#define ERRLEN		16384		/* a 5000-byte value, quoted */
#define LONGLEN		5000		/* the long value and option */
#define TRY_LINE	"try 'latt --help'\n"

/* argv after "latt", and how the one line after "latt: " must begin. */
struct refusal {
	const char	*argv[MAXARGS];
	const char	*msg;
};

/* What the child parses; out is the file its stdout goes to. */
struct job {
	char	**argv;
	int	  argc;
	int	  out;
};

/* t_runcontrol.sh's usage errors ("usage error: ARGS"). */
static const struct refusal runcontrol[] = {
	{ { "-d", "0", "true" }, "duration is too small: 0" },
	{ { "-d", "5x", "true" }, "duration is not a number with an optional "
	    "unit (ns, us, ms, s, m, h): 5x" },
	{ { "-d", "1.5.0", "true" }, "duration is not a number with an "
	    "optional unit (ns, us, ms, s, m, h): 1.5.0" },
	{ { "-d", "1.0000000001s", "true" },
	    "duration is finer than a nanosecond: 1.0000000001s" },
	{ { "-d", "-1", "true" }, "duration is not a number with an optional "
	    "unit (ns, us, ms, s, m, h): -1" },
	{ { "-f", "0.0000001", "true" },
	    "min-delay is finer than a nanosecond: 0.0000001" },
	{ { "-d", "99999h", "true" }, "duration is too large: 99999h" },
	{ { "-n", "0", "true" }, "samples is too small: 0" },
	{ { "-n", "x", "true" }, "samples is not a number: x" },
	{ { "--warmup=2", "-d", "1", "true" },
	    "warmup is not shorter than the duration" },
	{ { "--cpus=9999", "true" }, "cpus is too large: 9999" },
	{ { "--cpus=1-0", "true" }, "cpus: the range 1-0 is backwards" },
	{ { "--cpus=,", "true" }, "cpus is not a CPU list: ," },
	{ { "--parent-cpu=-1", "true" }, "parent-cpu is too small: -1" },
	{ { "--policy=fast", "true" }, "policy is not one of " },
	{ { "--prio=100", "true" }, "prio is too large: 100" },
	{ { "--policy=batch", "--prio=3", "true" },
	    "prio 3 needs policy fifo or rr" },
	{ { "--nice=20", "true" }, "nice is too large: 20" },
	{ { "--seed=x", "true" }, "seed is not a number: x" },
	{ { "--fail-above=p42=1", "true" },
	    "fail-above: unknown statistic: p42 " },
	{ { "--fail-above=p99", "true" }, "fail-above: not STAT=TIME: p99" },
	{ { "--fail-above=p99=1parsec", "true" },
	    "fail-above p99 is not a number with an optional unit" },
	{ { "--fail-above=max=-1", "true" },
	    "fail-above max is not a number with an optional unit" },
	/* "fail-above: an unknown timer statistic is a usage error" */
	{ { "--fail-above=timer.p98=1ms", "true" },
	    "fail-above: unknown statistic: timer.p98 " },
};

/* t_faults.sh's rows of odd bytes that are usage errors. */
static const struct refusal odd[] = {
	{ { "-f", "\xff\xfe", "true" }, "min-delay is not a number" },
	{ { "--clients=--5", "true" }, "clients is not a number: --5" },
	{ { "---c", "3", "true" }, "unknown option: ---c" },
	{ { "-c", "-", "true" }, "clients is not a number: -" },
	{ { "-c2", "" }, "the workload command is empty" },
	/* A newline in a value or an option is quoted: still one line. */
	{ { "-c", "3\n4", "true" }, "clients is not a number: 3\\x0a4" },
	{ { "-\n", "true" }, "unknown option: -\\x0a" },
};

static void	 parse(void *);
static void	 refused(const struct refusal *, const char *, const char *);
static void	 t_runcontrol(void);
static void	 t_offline_cpu(void);
static void	 t_odd_bytes(void);
static void	 t_long_value(void);
static void	 t_long_option(void);

static const struct unit_test tests[] = {
	{ "runcontrol: each usage error of t_runcontrol.sh, its line",
	    t_runcontrol },
	{ "runcontrol: an offline CPU is named", t_offline_cpu },
	{ "odd bytes: each usage error of t_faults.sh, one line",
	    t_odd_bytes },
	{ "odd bytes: a 5000-digit value (-c 999...)", t_long_value },
	{ "odd bytes: a 5000-letter long option", t_long_option },
};

int
main(void)
{
	return unit_main(tests, NELEM(tests));
}

/* The child: its stdout to job->out, then latt's parse of argv. */
static void
parse(void *arg)
{
	struct job *job = arg;
	struct config cfg;

	if (dup2(job->out, STDOUT_FILENO) == -1)
		_exit(99);
	options_parse(job->argc, job->argv, &cfg);
}

/*
 * Whether latt refuses r's words (a word "@" replaced by long_word) as a
 * usage error whose line starts with want (r->msg when NULL); the first
 * failure is recorded with CHECK's reason.
 */
static void
refused(const struct refusal *r, const char *long_word, const char *want)
{
	char *argv[MAXARGS + 2], *err = NULL, *nl;
	char path[] = "/tmp/unit_badargs.XXXXXX";
	struct job job = { argv, 0, -1 };
	struct stat st;
	int i, status;

	if (want == NULL)
		want = r->msg;
	/* Writable words, as a process's argv is (gate_parse cuts its). */
	argv[job.argc++] = (char *)"latt";
	for (i = 0; i < MAXARGS && r->argv[i] != NULL; i++)
		argv[job.argc++] = strdup(strcmp(r->argv[i], "@") == 0 ?
		    long_word : r->argv[i]);
	argv[job.argc] = NULL;
	for (i = 1; i < job.argc; i++)
		CHECK(argv[i] != NULL, "strdup");
	CHECK((err = malloc(ERRLEN)) != NULL, "malloc");
	CHECK((job.out = mkstemp(path)) != -1, "mkstemp");
	unlink(path);
	status = unit_exits(parse, &job, err, ERRLEN);
	CHECK(status == 2, "%.60s: status %d, want 2: %.200s", want, status,
	    err);
	CHECK(fstat(job.out, &st) == 0 && st.st_size == 0,
	    "%.60s: %lld bytes on stdout", want, (long long)st.st_size);
	CHECK(strncmp(err, "latt: ", 6) == 0 &&
	    strncmp(err + 6, want, strlen(want)) == 0,
	    "stderr is not 'latt: %.60s...': %.200s", want, err);
	nl = strchr(err, '\n');
	CHECK(nl != NULL && strcmp(nl + 1, TRY_LINE) == 0,
	    "stderr is not one line and the hint: %.200s", err);
out:
	if (job.out != -1)
		close(job.out);
	for (i = 1; i < job.argc; i++)
		free(argv[i]);
	free(err);
}

static void
t_runcontrol(void)
{
	size_t i;

	for (i = 0; i < NELEM(runcontrol) && unit_outcome == UNIT_PASS; i++)
		refused(&runcontrol[i], NULL, NULL);
}

/* --cpus naming a CPU 50 past the machine's: "CPU N is not online". */
static void
t_offline_cpu(void)
{
	long n = sysconf(_SC_NPROCESSORS_CONF);
	char opt[64], want[96];
	struct refusal r = { { opt, "true" }, want };

	if (n < 1 || n + 50 > 1023)
		SKIP("%ld CPUs: no CPU id past them within --cpus' 1023", n);
	snprintf(opt, sizeof(opt), "--cpus=%ld", n + 50);
	snprintf(want, sizeof(want), "cpus: CPU %ld is not online", n + 50);
	refused(&r, NULL, NULL);
out:
	return;
}

static void
t_odd_bytes(void)
{
	size_t i;

	for (i = 0; i < NELEM(odd) && unit_outcome == UNIT_PASS; i++)
		refused(&odd[i], NULL, NULL);
}

/* -c and a value of 5000 nines: too large, in one line. */
static void
t_long_value(void)
{
	char *v = NULL, *want = NULL;
	struct refusal r = { { "-c", "@", "true" }, NULL };

	CHECK((v = malloc(LONGLEN + 1)) != NULL &&
	    (want = malloc(LONGLEN + 64)) != NULL, "malloc");
	memset(v, '9', LONGLEN);
	v[LONGLEN] = '\0';
	/* A value so long is cut in the line, as a terminal's width. */
	snprintf(want, LONGLEN + 64, "clients is too large: %.40s", v);
	refused(&r, v, want);
out:
	free(v);
	free(want);
}

/* --xxx...x, 5000 letters: an unknown option, in one line. */
static void
t_long_option(void)
{
	char *v = NULL, *want = NULL;
	struct refusal r = { { "@", "true" }, NULL };

	CHECK((v = malloc(LONGLEN + 4)) != NULL &&
	    (want = malloc(LONGLEN + 64)) != NULL, "malloc");
	memcpy(v, "--", 2);
	memset(v + 2, 'x', LONGLEN);
	v[LONGLEN + 2] = '\0';
	snprintf(want, LONGLEN + 64, "unknown option: %.40s", v);
	refused(&r, v, want);
out:
	free(v);
	free(want);
}
