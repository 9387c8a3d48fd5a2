# build.mk: the build of one host, included by build/<host>/Makefile after
# the config.mk that configure wrote. Run from build/<host>.

CORE = api select scale extend32 anchor guard osclock parse persecond chosen perf tscrate
CORE_OBJ = $(CORE:%=obj/%.o) obj/options.o
COUNTER_OBJ = $(COUNTERS:%=obj/counter-%.o)
LIB_OBJ = $(CORE_OBJ) $(COUNTER_OBJ)
INC = -I$(SRC)/cpucycles -I$(SRC)/include

PKG = package
LIBSO = $(PKG)/lib/libcpucycles.so.1
LIBA = $(PKG)/lib/libcpucycles.a

# Every man page in doc/man goes into the package, section by its suffix.
MAN = $(patsubst $(SRC)/doc/man/%.1,$(PKG)/man/man1/%.1,$(wildcard $(SRC)/doc/man/*.1)) \
      $(patsubst $(SRC)/doc/man/%.3,$(PKG)/man/man3/%.3,$(wildcard $(SRC)/doc/man/*.3))

all: $(LIBSO) $(PKG)/lib/libcpucycles.so $(LIBA) $(PKG)/include/cpucycles.h \
     $(PKG)/bin/cpucycles-info $(PKG)/bin/cpucycles-open $(MAN) $(PKG)/lib/pkgconfig/cpucycles.pc

obj/%.o: $(SRC)/cpucycles/%.c
	$(CC) $(INC) -DCPUCYCLES_VERSION='"$(VERSION)"' -MMD -MP -c $< -o $@

obj/options.o: options.c
	$(CC) $(INC) -MMD -MP -c $< -o $@

# Each counter file gets its own name for the one symbol it defines.
obj/counter-%.o: $(SRC)/cpucycles/%.c
	$(CC) $(INC) -DCOUNTER=cpucycles_counter_$(subst -,_,$*) -MMD -MP -c $< -o $@

$(LIBA): $(LIB_OBJ)
	@mkdir -p $(@D)
	rm -f $@
	ar rcs $@ $(LIB_OBJ)

$(LIBSO): $(LIB_OBJ)
	@mkdir -p $(@D)
	$(CC) -shared -Wl,-z,now -Wl,-soname,libcpucycles.so.1 -o $@ $(LIB_OBJ) $(LDFLAGS)

$(PKG)/lib/libcpucycles.so: $(LIBSO)
	ln -sf libcpucycles.so.1 $@

$(PKG)/include/cpucycles.h: $(SRC)/include/cpucycles.h
	@mkdir -p $(@D)
	cp $< $@

# Linked statically so it runs from the build tree and from any prefix.
$(PKG)/bin/cpucycles-info: $(SRC)/command/cpucycles-info.c $(LIBA) $(PKG)/include/cpucycles.h
	@mkdir -p $(@D)
	$(CC) -I$(PKG)/include -o $@ $< $(LIBA) $(LDFLAGS)

# Needs nothing of the library: it only changes kernel settings.
$(PKG)/bin/cpucycles-open: $(SRC)/command/cpucycles-open.c
	@mkdir -p $(@D)
	$(CC) -o $@ $< $(LDFLAGS)

$(PKG)/man/man3/%.3: $(SRC)/doc/man/%.3
	@mkdir -p $(@D)
	cp $< $@

$(PKG)/man/man1/%.1: $(SRC)/doc/man/%.1
	@mkdir -p $(@D)
	cp $< $@

# The prefix is configure's: the file says where the library will live
# once installed, which DESTDIR staging does not change.
$(PKG)/lib/pkgconfig/cpucycles.pc: $(SRC)/scripts-build/cpucycles.pc.in config.mk
	@mkdir -p $(@D)
	sed -e 's|@PREFIX@|$(PREFIX)|g' -e 's|@VERSION@|$(VERSION)|g' $< > $@

install: all
	sh $(SRC)/scripts-build/install $(PKG) "$(DESTDIR)$(PREFIX)"

-include $(SRC)/test/build.mk
-include $(SRC)/bench/build.mk
-include obj/*.d

.PHONY: all install
