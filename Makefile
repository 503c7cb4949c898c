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

# The spine at the top; every other room in the folder of its concern
# (README.md, Layout).  Objects and dependency files go under $(B).
DIRS = cli compare explain json lib measure plot proc record report sweep
SRCS = latt.c config.c result.c stats.c $(sort $(wildcard $(DIRS:=/*.c)))
B = build
OBJS = $(SRCS:%.c=$(B)/%.o)
INC = -I.

SAN_FLAGS = -O1 -g -fno-omit-frame-pointer -fsanitize=address,undefined \
	-fno-sanitize-recover=all
SAN_CFLAGS = -std=gnu11 -D_GNU_SOURCE -pthread $(WARNFLAGS) $(SAN_FLAGS) $(INC)

all: latt

latt: $(OBJS)
	$(CC) $(LDFLAGS) -pthread -o $@ $(OBJS) $(LDLIBS)

$(B)/%.o: %.c
	@mkdir -p $(@D)
	$(CC) $(LATT_CFLAGS) $(INC) $(DEPFLAGS) -c -o $@ $<

-include $(OBJS:.o=.d)

# latt compare's rooms and all they call, for the test programs below.
COMPARE_SRCS = $(wildcard compare/*.c) json/jsonread.c json/jsonw.c \
	stats.c $(wildcard lib/*.c)
HDRS = $(wildcard *.h $(DIRS:=/*.h))

$(B)/unit_stats: tests/unit_stats.c stats.c stats.h
	@mkdir -p $(@D)
	$(CC) $(LATT_CFLAGS) $(INC) -o $@ tests/unit_stats.c stats.c $(LDLIBS)

# The calibration of latt compare (synthetic runs; tests/calib_compare.c).
CALIB_SRCS = tests/calib_compare.c $(COMPARE_SRCS)
$(B)/calib_compare: $(CALIB_SRCS) $(HDRS)
	@mkdir -p $(@D)
	$(CC) $(LATT_CFLAGS) $(INC) -o $@ $(CALIB_SRCS) $(LDLIBS)

# The same programs built with AddressSanitizer and UBSan, for make check.
# An object a source, so that make -j builds them side by side.
SAN_OBJS = $(SRCS:%.c=$(B)/san/%.o)
$(B)/san/%.o: %.c
	@mkdir -p $(@D)
	$(CC) $(SAN_CFLAGS) $(DEPFLAGS) -c -o $@ $<

-include $(SAN_OBJS:.o=.d)

$(B)/san/latt: $(SAN_OBJS)
	$(CC) -pthread $(SAN_FLAGS) -o $@ $(SAN_OBJS) $(LDLIBS)

$(B)/san/unit_stats: tests/unit_stats.c stats.c stats.h
	@mkdir -p $(@D)
	$(CC) $(SAN_CFLAGS) -o $@ tests/unit_stats.c stats.c $(LDLIBS)

# The mutation fuzzer of the result-file reader (tests/fuzz_compare.c).
FUZZ_SRCS = tests/fuzz_compare.c $(COMPARE_SRCS)
$(B)/san/fuzz_compare: $(FUZZ_SRCS) $(HDRS)
	@mkdir -p $(@D)
	$(CC) $(SAN_CFLAGS) -o $@ $(FUZZ_SRCS) $(LDLIBS)

$(B)/san/calib_compare: $(CALIB_SRCS) $(HDRS)
	@mkdir -p $(@D)
	$(CC) $(SAN_CFLAGS) -o $@ $(CALIB_SRCS) $(LDLIBS)

CHECK_PROGS = latt $(B)/unit_stats $(B)/calib_compare $(B)/san/latt \
	$(B)/san/unit_stats $(B)/san/fuzz_compare $(B)/san/calib_compare

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
	rm -rf latt $(B)

.PHONY: all check check-sanitize check-build install uninstall clean
