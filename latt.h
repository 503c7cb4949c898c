/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Shared types of latt: the run's settings (struct config), what a run
 * produced (struct result), and the interfaces between the rooms of the
 * house: latt.c parses and orchestrates, measure.c owns the clients and the
 * measurement loop, workload.c starts and stops everything that runs beside
 * the measurement, report.c prints finished results as text, json.c writes
 * them as JSON and plot.c draws them as SVG.
 */
#ifndef LATT_H
#define LATT_H

#include <sys/types.h>

#include <signal.h>
#include <stdint.h>
#include <stdio.h>

#include "stats.h"

#define LATT_VERSION	"1.0"

/* Exit statuses, as documented in latt.1 and README.md. */
#define EXIT_OK		0
#define EXIT_RUNTIME	1	/* fork, pipe, a client died, a write failed */
#define EXIT_USAGE	2
#define EXIT_THRESHOLD	3	/* reserved for latency thresholds */
#define EXIT_WORKLOAD	4	/* the workload failed; summary printed */

#define NSEC_PER_SEC	1000000000LL
#define NSEC_PER_MSEC	1000000LL
#define NSEC_PER_USEC	1000LL

struct config {
	unsigned	 nclients;
	int64_t		 min_delay;	/* ns, the parent's sleep between rounds */
	int64_t		 max_delay;	/* ns */
	int		 verbose;
	uint64_t	 seed;
	char		**cmd;		/* workload argv, NULL-terminated */
	int		 ncmd;		/* 1: run as /bin/sh -c cmd[0] */
	int		 quiet;		/* no progress line */
	int		 per_client;	/* the per-client table */
	int		 histogram;	/* the text histogram */
	const char	*json_path;	/* "-": stdout, in place of the text */
	const char	*log_path;	/* CSV of every sample */
	const char	*plot_path;	/* SVG */
};

/* One wake-up, as the measurement loop hands it to a sample sink. */
struct sample {
	int64_t		when;		/* ns since the run started */
	uint64_t	round;
	uint32_t	client;
	int32_t		cpu;		/* CPU the client woke on, or -1 */
	pid_t		pid;		/* the client's pid */
	int64_t		latency;	/* ns */
};

/*
 * A sink receives every sample as it is taken; it returns 0, or -1 with
 * errno set to end the run (a log file that cannot be written, say).
 */
typedef int (*sample_sink)(void *arg, const struct sample *);

/*
 * A tick is called by the measurement loop between rounds (and during long
 * sleeps), at most once a second, with the sink's argument.  It returns 0,
 * or -1 with errno set to end the run like a failed sink.
 */
struct result;
typedef int (*tick_hook)(void *arg, const struct result *);

enum stop_reason {
	STOP_NONE,
	STOP_WORKLOAD,		/* the workload exited */
	STOP_SIGNAL,		/* latt got SIGINT, SIGTERM or SIGHUP */
	STOP_CLIENT,		/* a client died */
	STOP_ERROR,		/* a system call failed */
	STOP_SINK,		/* a sample sink failed */
};

struct workload {
	pid_t		 pid;		/* 0: none running */
	int		 status;	/* wait status once reaped */
	int		 reaped;
	int		 stopped_by_us;	/* we signalled it to end the run */
	int		 exec_errno;	/* exec failed in the child */
	int64_t		 start;		/* CLOCK_MONOTONIC ns */
	int64_t		 end;
};

/* What one client saw, kept with --per-client and --json. */
struct client_stats {
	struct stats	 lat;		/* at CLIENT_SUB_BITS precision */
	int32_t		 last_cpu;	/* -1 before the first sample */
	uint64_t	 migrations;	/* wake CPU differed from the last one */
};

/*
 * Per-client histograms are coarse to keep memory at 2.6 KiB a client:
 * a per-client percentile is within 1/2^(3+1) = 6.25% of the truth.
 */
#define CLIENT_SUB_BITS	3

struct result {
	struct stats	 lat;		/* pipe wake-up latency */
	struct client_stats *clients;	/* nclients of them, or NULL */
	struct timeline	*timeline;	/* latency over time for --plot, or NULL */
	uint64_t	 nrounds;
	int64_t		 start;		/* CLOCK_MONOTONIC ns of the run's start */
	int64_t		 end;
	enum stop_reason stop;
	int		 stop_signal;	/* with STOP_SIGNAL */
	const char	*fail_what;	/* with STOP_ERROR or STOP_SINK */
	int		 fail_errno;
	unsigned	 dead_client;	/* with STOP_CLIENT */
	pid_t		 dead_pid;
	int		 dead_status;	/* wait status, or -1 if not reaped */
	struct workload	 wl;
};

/* Flags set by latt.c's signal handlers, read by the loops. */
extern volatile sig_atomic_t got_stop;		/* signal number, or 0 */
extern volatile sig_atomic_t got_child;

int64_t	 now_ns(void);

/* measure.c */
struct engine;
struct engine	*clients_start(const struct config *, struct result *);
int	 measure_run(const struct config *, struct engine *, struct result *,
	    sample_sink, tick_hook, void *sink_arg);
void	 clients_stop(struct engine *, struct result *);

/* workload.c */
int	 workload_start(const struct config *, struct workload *);
int	 workload_poll(struct workload *);
void	 workload_stop(struct workload *, int sig);
int	 workload_failed(const struct workload *);
char	*workload_describe(const struct config *);

/* report.c */
void	 report_text(FILE *, const struct config *, const struct result *);
void	 report_verbose(FILE *, const struct sample *);
void	 report_per_client(FILE *, const struct config *, const struct result *);
void	 report_histogram(FILE *, const struct result *, int width);
void	 report_progress(FILE *, const struct result *, int64_t now);

/* json.c: returns 0, or -1 with errno set when fp failed. */
int	 json_write(FILE *, const struct config *, const struct result *);
/* Length (1-4) of the well-formed UTF-8 sequence at s, or 0. */
size_t	 json_utf8_len(const unsigned char *s);

/* plot.c: returns 0, or -1 with errno set when fp failed. */
int	 plot_write(FILE *, const struct config *, const struct result *);

#endif /* LATT_H */
