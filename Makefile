# latt: scheduler wake-up latency tester.  See README.md.
PREFIX ?= /usr/local
BINDIR ?= $(PREFIX)/bin
MANDIR ?= $(PREFIX)/share/man

CC ?= cc
CFLAGS ?= -O2 -g
WARNFLAGS = -Wall -Wextra -Wshadow -Wstrict-prototypes -Wmissing-prototypes \
	-Wpointer-arith -Wformat=2
LATT_CFLAGS = -std=gnu11 -D_GNU_SOURCE -pthread $(WARNFLAGS) $(CFLAGS)
DEPFLAGS = -MMD -MP
LDLIBS = -lrt -lm -lpthread
# Every symbol bound at start: a forked client binds none of its own (lazy
# binding cost each client some of its start-up CPU and a copied page).
LDFLAGS += -Wl,-z,now

SRCS = latt.c options.c command.c measure.c client.c workload.c loads.c tune.c trace.c \
	explain.c tracedec.c autopsy.c keeper.c report.c json.c plot.c stats.c \
	compare.c cmpread.c cmpstat.c jsonread.c common.c env.c result.c jsonw.c \
	outputs.c plotink.c gate.c proc.c guard.c split.c help.c cpulist.c \
	counts.c floor.c sweep.c cmpfile.c curves.c order.c facts.c topo.c where.c \
	plotcurve.c cmpcount.c cmpwork.c knob.c feed.c frames.c plotframe.c \
	cmpframe.c cmphost.c cmpshow.c noise.c jsonmach.c jsonexpl.c \
	cmpplace.c plotnoise.c
HDRS = $(wildcard *.h)
OBJS = $(SRCS:.c=.o)

SAN_FLAGS = -O1 -g -fno-omit-frame-pointer -fsanitize=address,undefined \
	-fno-sanitize-recover=all

all: latt

latt: $(OBJS)
	$(CC) $(LDFLAGS) -pthread -o $@ $(OBJS) $(LDLIBS)

%.o: %.c
	$(CC) $(LATT_CFLAGS) $(DEPFLAGS) -c -o $@ $<

-include $(OBJS:.o=.d)

tests/unit_stats: tests/unit_stats.c stats.c stats.h
	$(CC) $(LATT_CFLAGS) -I. -o $@ tests/unit_stats.c stats.c $(LDLIBS)

# latt compare's rooms and all they call, for the test programs below.
COMPARE_SRCS = compare.c cmpread.c cmpfile.c cmpstat.c cmpcount.c cmpwork.c \
	cmpframe.c cmphost.c cmpshow.c cmpplace.c jsonread.c jsonw.c stats.c \
	common.c help.c

# The calibration of latt compare (synthetic runs; tests/calib_compare.c).
CALIB_SRCS = tests/calib_compare.c $(COMPARE_SRCS)
tests/calib_compare: $(CALIB_SRCS) $(HDRS)
	$(CC) $(LATT_CFLAGS) -I. -o $@ $(CALIB_SRCS) $(LDLIBS)

# The same programs built with AddressSanitizer and UBSan, for make check.
# An object a source, so that make -j builds them side by side.
SAN_OBJS = $(SRCS:%.c=san/%.o)
san/%.o: %.c
	@mkdir -p san
	$(CC) -std=gnu11 -D_GNU_SOURCE -pthread $(WARNFLAGS) $(SAN_FLAGS) \
		$(DEPFLAGS) -c -o $@ $<

-include $(SAN_OBJS:.o=.d)

san/latt: $(SAN_OBJS)
	$(CC) -pthread $(SAN_FLAGS) -o $@ $(SAN_OBJS) $(LDLIBS)

san/unit_stats: tests/unit_stats.c stats.c stats.h
	@mkdir -p san
	$(CC) -std=gnu11 -D_GNU_SOURCE $(WARNFLAGS) $(SAN_FLAGS) -I. \
		-o $@ tests/unit_stats.c stats.c $(LDLIBS)

# The mutation fuzzer of the result-file reader (tests/fuzz_compare.c).
FUZZ_SRCS = tests/fuzz_compare.c $(COMPARE_SRCS)
san/fuzz_compare: $(FUZZ_SRCS) $(HDRS)
	@mkdir -p san
	$(CC) -std=gnu11 -D_GNU_SOURCE $(WARNFLAGS) $(SAN_FLAGS) -I. \
		-o $@ $(FUZZ_SRCS) $(LDLIBS)

san/calib_compare: $(CALIB_SRCS) $(HDRS)
	@mkdir -p san
	$(CC) -std=gnu11 -D_GNU_SOURCE $(WARNFLAGS) $(SAN_FLAGS) -I. \
		-o $@ $(CALIB_SRCS) $(LDLIBS)

CHECK_PROGS = latt tests/unit_stats tests/calib_compare san/latt \
	san/unit_stats san/fuzz_compare san/calib_compare

# The tests: every script plain, and the sanitizers' share of them (see
# tests/run); check-sanitize runs every script under the sanitizers too.
check: $(CHECK_PROGS)
	@tests/run

check-sanitize: $(CHECK_PROGS)
	@LATT_SANITIZE_ALL=1 tests/run

# What make check needs, for a parallel build first (make -j2 check-build).
check-build: $(CHECK_PROGS)

install: latt
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(MANDIR)/man1
	install -m 755 latt $(DESTDIR)$(BINDIR)/latt
	install -m 644 latt.1 $(DESTDIR)$(MANDIR)/man1/latt.1

uninstall:
	rm -f $(DESTDIR)$(BINDIR)/latt $(DESTDIR)$(MANDIR)/man1/latt.1

clean:
	rm -rf latt $(OBJS) $(OBJS:.o=.d) tests/unit_stats tests/calib_compare \
		san

.PHONY: all check check-sanitize check-build install uninstall clean
