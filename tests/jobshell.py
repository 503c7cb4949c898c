# SPDX-License-Identifier: GPL-2.0-only
# A tiny job-control shell for tests/t_job.sh: it opens a pseudo-terminal,
# becomes a session leader with it as the controlling terminal, and runs
# latt as a foreground job the way an interactive shell does (its own
# process group, given the terminal, waited for with WUNTRACED).  Each
# scenario prints PASS/FAIL/SKIP lines.  python3 standard library only.
import fcntl, os, re, select, signal, struct, sys, termios, time

latt, tmp, scenario = sys.argv[1], sys.argv[2], sys.argv[3]


def ok(name, cond, why=""):
    print(("PASS: %s" % name) if cond else ("FAIL: %s: %s" % (name, why)),
          flush=True)


def descendants(root):
    """pid -> (state, pgrp, comm) of every descendant of root, but latt's
    guardian (latt-guard), which watches the job and runs on while it is
    stopped, so that it can end it if latt is killed meanwhile."""
    kids, info = {}, {}
    for d in os.listdir("/proc"):
        if not d.isdigit():
            continue
        try:
            s = open("/proc/%s/stat" % d).read()
        except OSError:
            continue
        comm = s[s.index("(") + 1:s.rindex(")")]
        f = s[s.rindex(")") + 2:].split()
        pid, ppid = int(d), int(f[1])
        kids.setdefault(ppid, []).append(pid)
        info[pid] = (f[0], int(f[2]), comm)
    out, todo = {}, [root]
    while todo:
        p = todo.pop()
        for k in kids.get(p, []):
            if info[k][2] == "latt-guard":
                continue
            out[k] = info[k]
            todo.append(k)
    return out


def state(pid):
    try:
        s = open("/proc/%d/stat" % pid).read()
    except OSError:
        return None
    return s[s.rindex(")") + 2:].split()[0]


def wait_for(cond, limit):
    t = time.monotonic() + limit
    while time.monotonic() < t:
        if cond():
            return True
        time.sleep(0.05)
    return cond()


master, slave = os.openpty()
# The shell: a new session with the pty as its controlling terminal.
shell = os.fork()
if shell != 0:
    os.close(slave)
    log = open(tmp + "/tty.log", "wb")
    # Drain the terminal into tty.log so that the run never blocks on a full pty.
    result = 0
    while True:
        try:
            r = os.waitpid(shell, os.WNOHANG)
        except ChildProcessError:
            break
        if r[0] == shell:
            result = r[1]
            break
        try:
            if select.select([master], [], [], 0.1)[0]:
                log.write(os.read(master, 65536))
                log.flush()
        except OSError:
            time.sleep(0.1)
    sys.exit(0)

os.setsid()
fcntl.ioctl(slave, termios.TIOCSCTTY, 0)
signal.signal(signal.SIGTTOU, signal.SIG_IGN)


def start(args, out, err, tty_stderr=False, background=False):
    pid = os.fork()
    if pid == 0:
        os.setpgid(0, 0)
        if not background:
            os.tcsetpgrp(slave, os.getpid())
        signal.signal(signal.SIGTTOU, signal.SIG_DFL)
        os.dup2(slave, 0)
        fo = os.open(out, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
        fe = os.open(err, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
        os.dup2(fo, 1)
        os.dup2(slave if tty_stderr else fe, 2)
        os.execv(latt, [latt] + args)
    os.setpgid(pid, pid)
    if not background:
        os.tcsetpgrp(slave, pid)
    return pid


def wait_job(pid, limit, untraced=False):
    """(how, value): ("exit", code), ("signal", n), ("stop", n), or
    ("timeout", None)."""
    t = time.monotonic() + limit
    flags = os.WNOHANG | (os.WUNTRACED if untraced else 0)
    while time.monotonic() < t:
        r, st = os.waitpid(pid, flags)
        if r == pid:
            os.tcsetpgrp(slave, os.getpgrp())
            if os.WIFSTOPPED(st):
                return "stop", os.WSTOPSIG(st)
            if os.WIFEXITED(st):
                return "exit", os.WEXITSTATUS(st)
            return "signal", os.WTERMSIG(st)
        time.sleep(0.02)
    return "timeout", None


def kill_all(pid):
    for p in list(descendants(pid)) + [pid]:
        try:
            os.kill(p, signal.SIGKILL)
        except OSError:
            pass


def reap(pid, how):
    """Kills and reaps the job unless how (from wait_job) says it ended."""
    if how not in ("exit", "signal"):
        kill_all(pid)
        wait_job(pid, 5)


def workload_holds_terminal(pid, limit=20):
    """Waits (limit s at most) until the run's workload, the descendant
    of latt pid leading a group of its own, holds the terminal: every
    client is ready by then.  A wait on the run, not a fixed sleep: short
    on a quiet machine, long enough on a loaded one."""
    def holds():
        # latt's children from its tasks' children files: a look at a few
        # files, not at every process (a loaded machine has many).
        fg = os.tcgetpgrp(slave)
        if fg == pid:
            return False
        try:
            for t in os.listdir("/proc/%d/task" % pid):
                for k in open("/proc/%d/task/%s/children" % (pid, t)).read().split():
                    s = open("/proc/%s/stat" % k).read()
                    f = s[s.rindex(")") + 2:].split()
                    if int(k) == fg and int(f[2]) == fg:
                        return True
        except (OSError, ValueError):
            pass
        return False
    return wait_for(holds, limit)


def typed(text):
    """Types text at the terminal: written to the master, as a terminal
    emulator does with the keys pressed."""
    os.write(master, text.encode())


def field(path, label):
    for line in open(path, errors="replace"):
        f = line.rstrip("\n").split("\t")
        if len(f) >= 3 and f[1] == label:
            return f[2].strip()
    return None


out, err = tmp + "/job.out", tmp + "/job.err"
got = tmp + "/got"     # what the workload read from the terminal


def got_line(name, want, how, v):
    """The workload read want from the terminal, and the job exited 0."""
    text = open(got).read().strip() if os.path.exists(got) else ""
    ok("%s (got %r, %s %s)" % (name, text, how, v),
       text == want and (how, v) == ("exit", 0), open(err).read()[:300])


if scenario == "read":
    pid = start(["-q", "-c2", "-f1", "-t3",
                 'read x; echo "got:$x" > %s' % got], out, err)
    workload_holds_terminal(pid)
    typed("hello\n")
    how, v = wait_job(pid, 15)
    reap(pid, how)
    got_line("job: the workload reads the terminal", "got:hello", how, v)

elif scenario == "tstp":
    t0 = time.monotonic()
    pid = start(["-q", "--details", "-c2", "-f1", "-t3", "-l", "cpu:1",
                 "-d", "2", "sleep 30"], out, err)
    workload_holds_terminal(pid)
    time.sleep(0.2)
    typed("\x1a")                       # Ctrl-Z
    how, v = wait_job(pid, 10, untraced=True)
    ok("job: Ctrl-Z stops latt's job (%s %s)" % (how, v),
       (how, v) == ("stop", signal.SIGTSTP), open(err).read()[:300])
    if how != "stop":
        reap(pid, how)
        sys.exit(0)
    kids = {}
    every = wait_for(lambda: (kids.update(descendants(pid)) or True) and
                     len(kids) >= 4 and
                     all(state(p) in ("T", None) for p in kids), 3)
    ok("job: every process of the run is stopped (%d: %s)" % (
       len(kids), " ".join("%s:%s" % (c, st) for st, g, c in
                           (descendants(pid).get(p, ("-", 0, "?"))
                            for p in kids))), every)
    time.sleep(1.0)
    # fg: the terminal back to the job, and SIGCONT to its group.
    os.tcsetpgrp(slave, pid)
    os.killpg(pid, signal.SIGCONT)
    running = wait_for(lambda: all(state(p) not in ("T",)
                                   for p in descendants(pid)), 3)
    ok("job: fg resumes every process of the run", running,
       " ".join("%s:%s" % (c, st) for st, g, c in
                descendants(pid).values()))
    wl = [p for p, (st, g, c) in descendants(pid).items()
          if g == p and not c.startswith("latt")]
    ok("job: after fg the workload holds the terminal again",
       wl and wait_for(lambda: os.tcgetpgrp(slave) == wl[0], 2),
       "tcgetpgrp %d, workload %s" % (os.tcgetpgrp(slave), wl))
    how, v = wait_job(pid, 20)
    wall = time.monotonic() - t0
    reap(pid, how)
    ran = field(out, "ran") or ""
    m = re.match(r"([0-9.]+) s", ran)
    ran_s = float(m.group(1)) if m else -1
    susp = field(out, "suspended") or ""
    m = re.match(r"([0-9.]+) s", susp)
    susp_s = float(m.group(1)) if m else -1
    # Bounds of a loaded machine: the suspension lasts at least the 1 s
    # slept, and is not counted in the 2 s of -d (a run that counted it
    # would end within 2 s of its start).
    ok("job: -d 2 suspended for 1 s measures about 2 s (ran %.3f s, "
       "suspended %.3f s, wall %.1f s, %s %s)" % (ran_s, susp_s, wall,
                                                  how, v),
       (how, v) == ("exit", 0) and 1.8 <= ran_s <= 4.5 and
       0.9 <= susp_s <= 6 and wall >= 2.9, open(err).read()[:300])
    tw = field(out, "timer worst") or "0"
    try:
        tw_us = float(tw.split()[0])
    except ValueError:
        tw_us = -1
    ok("job: the suspension is no timer sample (timer worst %s us)" % tw,
       0 <= tw_us < 1000000)

elif scenario == "int":
    pid = start(["-q", "--details", "-c2", "-f1", "-t3", "-d", "20",
                 "sleep 30"], out, err)
    workload_holds_terminal(pid)
    time.sleep(0.2)
    t0 = time.monotonic()
    typed("\x03")                       # Ctrl-C
    how, v = wait_job(pid, 15)
    dt = time.monotonic() - t0
    reap(pid, how)
    ran = field(out, "ran") or ""
    ok("job: Ctrl-C ends the run normally (%s %s in %.1f s; ran %s)" % (
       how, v, dt, ran), (how, v) == ("exit", 0) and dt < 8 and
       "Interrupt" in ran, open(err).read()[:300])

elif scenario == "progress":
    # A 40-column terminal: the progress line is cut to 39 columns and
    # says what runs (no command: the loads).
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 40, 0, 0))
    pid = start(["-c2", "-f1", "-t3", "-l", "cpu:1", "-d", "3.3"], out, err,
                tty_stderr=True)
    how, v = wait_job(pid, 20)
    reap(pid, how)
    time.sleep(0.5)
    raw = open(tmp + "/tty.log", "rb").read().decode("utf-8", "replace")
    lines = [l.replace("\x1b[K", "") for l in re.split(r"[\r\n]", raw)]
    prog = [l for l in lines if "samples" in l]
    ok("progress: shown on the terminal (%d redraws, %s %s)" % (
       len(prog), how, v), len(prog) >= 1 and (how, v) == ("exit", 0),
       repr(raw[:200]))
    ok("progress: cut to the terminal's width (widest %d of 40)" %
       max([len(l) for l in prog] or [0]),
       prog and max(len(l) for l in prog) <= 39, repr(prog[:2]))
    full = [l for l in prog if len(l) < 39]
    ok("progress: says the loads run, no workload",
       all("workload" not in l for l in prog) and
       any("loads running" in l for l in prog) or
       (prog and all(len(l) == 39 for l in prog) and
        all("workload" not in l for l in prog)), repr(prog[:2]))
    ok("progress: erased before the summary (nothing after the last \\r "
       "but the erase)", raw.rstrip("\n").endswith("\r\x1b[K") or
       raw.rstrip().endswith("\x1b[K"), repr(raw[-60:]))

elif scenario == "chatty":
    # A workload that writes to the terminal while latt runs: no progress
    # line may mix with its lines (it drew one from 2 s on, and the
    # workload's next line went on after it: "workload runningline-4").
    # (7 lines 0.4 s apart: the workload runs past the 2 s after which a
    # progress line would be drawn.)
    pid = start(["-c2", "-f1", "-t3", "for i in 1 2 3 4 5 6 7; do echo "
                 "line-$i-of-the-workload >&2; sleep 0.4; done"], out, err,
                tty_stderr=True)
    how, v = wait_job(pid, 20)
    reap(pid, how)
    time.sleep(0.5)
    raw = open(tmp + "/tty.log", "rb").read().decode("utf-8", "replace")
    lines = [l.rstrip("\r") for l in raw.split("\n")]
    wl = [l for l in lines if "line-" in l]
    want = ["line-%d-of-the-workload" % i for i in range(1, 8)]
    ok("progress: a workload's lines reach the terminal intact (%d of 7, "
       "%s %s)" % (sum(l in want for l in wl), how, v),
       wl == want and (how, v) == ("exit", 0), repr(wl[:3]))
    ok("progress: no progress line beside a command's output",
       "samples" not in raw, repr(raw[:200]))

elif scenario == "ttin":
    # "latt ... &": the workload reads the terminal from the background;
    # the job stops (SIGTTIN), and once in the foreground (fg) it reads.
    pid = start(["-q", "-c2", "-f1", "-t3",
                 'read x; echo "got:$x" > %s' % got], out, err,
                background=True)
    how, v = wait_job(pid, 10, untraced=True)
    ok("job: a workload reading from the background stops the job "
       "(%s %s)" % (how, v), (how, v) == ("stop", signal.SIGTTIN),
       open(err).read()[:300])
    if how == "stop":
        os.tcsetpgrp(slave, pid)
        os.killpg(pid, signal.SIGCONT)
        time.sleep(0.1)
        typed("from fg\n")
        how, v = wait_job(pid, 15)
    reap(pid, how)
    got_line("job: after fg the workload reads the terminal", "got:from fg",
             how, v)
    ok("job: the summary says the run was suspended (SIGTTIN)",
       "SIGTTIN" in (field(out, "suspended") or ""),
       repr(field(out, "suspended")))
