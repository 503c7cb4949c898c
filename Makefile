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

# make static: latt-static, the same objects linked statically, for a
# test VM or an initramfs whose libc may not match: copy it in and run it.
latt-static: $(OBJS)
	$(CC) $(LDFLAGS) -static -pthread -o $@ $(OBJS) $(LDLIBS)

static: latt-static

$(B)/%.o: %.c
	@mkdir -p $(@D)
	$(CC) $(LATT_CFLAGS) $(INC) $(DEPFLAGS) -c -o $@ $<

-include $(OBJS:.o=.d)

# Every room but latt.c, for the test programs: a unit program
# (tests/unit_NAME.c, harness tests/unit.h) links it and calls what latt
# calls.  The same built with AddressSanitizer and UBSan under $(B)/san.
LIB_OBJS = $(filter-out $(B)/latt.o,$(OBJS))
SAN_OBJS = $(SRCS:%.c=$(B)/san/%.o)
SAN_LIB_OBJS = $(filter-out $(B)/san/latt.o,$(SAN_OBJS))
UNITS = $(patsubst tests/%.c,%,$(wildcard tests/unit_*.c))

$(B)/liblatt.a: $(LIB_OBJS)
	$(AR) rcs $@ $(LIB_OBJS)

$(B)/san/liblatt.a: $(SAN_LIB_OBJS)
	$(AR) rcs $@ $(SAN_LIB_OBJS)

# The calibration of latt compare (synthetic runs) and the mutation fuzzer
# of its file reader are built the same way.
$(B)/%: tests/%.c $(B)/liblatt.a tests/unit.h
	$(CC) $(LATT_CFLAGS) $(INC) -o $@ $< $(B)/liblatt.a $(LDLIBS)

$(B)/san/%: tests/%.c $(B)/san/liblatt.a tests/unit.h
	$(CC) $(SAN_CFLAGS) -o $@ $< $(B)/san/liblatt.a $(LDLIBS)

$(B)/san/%.o: %.c
	@mkdir -p $(@D)
	$(CC) $(SAN_CFLAGS) $(DEPFLAGS) -c -o $@ $<

-include $(SAN_OBJS:.o=.d)

$(B)/san/latt: $(SAN_OBJS)
	$(CC) -pthread $(SAN_FLAGS) -o $@ $(SAN_OBJS) $(LDLIBS)

CHECK_PROGS = latt $(B)/san/latt $(UNITS:%=$(B)/%) $(UNITS:%=$(B)/san/%) \
	$(B)/calib_compare $(B)/san/calib_compare $(B)/san/fuzz_compare
# latt-static too where there is a static libc (tests/t_static.sh).
ifneq ($(filter /%,$(shell $(CC) -print-file-name=libc.a 2>/dev/null)),)
CHECK_PROGS += latt-static
endif

# The tests: every script plain, and the sanitizers' share of them (see
# tests/run).  The long passes: check-sanitize runs every script both
# ways, check-valgrind the unit programs and latt's modes under valgrind.
# check-loaded runs make check's suite beside two busy loops of its own.
check: $(CHECK_PROGS)
	@tests/run

check-sanitize: $(CHECK_PROGS)
	@LATT_SANITIZE_ALL=1 tests/run

check-valgrind: $(CHECK_PROGS)
	@LATT_NO_SANITIZE=1 LATT_VALGRIND=1 tests/run tests/t_memcheck.sh

check-loaded: $(CHECK_PROGS)
	@tests/run --loaded

# What make check needs, for a parallel build first (make -j2 check-build).
check-build: $(CHECK_PROGS)

install: latt
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(MANDIR)/man1
	install -m 755 latt $(DESTDIR)$(BINDIR)/latt
	install -m 644 latt.1 $(DESTDIR)$(MANDIR)/man1/latt.1

uninstall:
	rm -f $(DESTDIR)$(BINDIR)/latt $(DESTDIR)$(MANDIR)/man1/latt.1

clean:
	rm -rf latt latt-static $(B)

.PHONY: all static check check-sanitize check-valgrind check-loaded \
	check-build install uninstall clean
