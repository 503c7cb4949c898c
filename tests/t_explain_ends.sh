#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# --explain's other part (t_explain.sh holds both): bad values, no
# tracefs, no right to trace, and every way a run ends (signals, a failed
# workload, a full disk, a client killed, a stopped or killed keeper,
# tracefs unmounted mid-run, PID namespaces): the instance goes and the
# global tracing state stays.  These name no task, so tests/run runs them
# in its lanes, under the tracefs lock; t_explain.sh, alone, names the
# tasks that delayed a client.
LATT_EXPLAIN_PART=ends exec bash "$(dirname "$0")/t_explain.sh" "$@"
