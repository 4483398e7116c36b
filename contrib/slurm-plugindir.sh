#!/bin/sh
# Print Slurm's plugin directory, where governor.so belongs (meson.build runs
# this when -Dslurm_plugindir is not given).
# usage: slurm-plugindir.sh FALLBACK_LIBDIR CC [CC ARGS...]
#
# Slurm's libdir comes from slurm.pc when there is one (Slurm >= 23.02 ships
# it; Debian 12's libslurm-dev does not), else from where the compiler finds
# libslurm.so.  The plugin directory is libdir/slurm-wlm on Debian and
# libdir/slurm upstream and on RPM systems; the first that exists wins.
set -u
fallback=$1
shift
libdirs=
if pc=$(pkg-config --variable=libdir slurm 2>/dev/null) && [ -n "$pc" ]; then
	libdirs=$pc
fi
# -print-file-name prints the bare name when the library is not found.
lib=$("$@" -print-file-name=libslurm.so 2>/dev/null)
case $lib in
/*) [ -e "$lib" ] && libdirs="$libdirs $(dirname "$(realpath "$lib")")" ;;
esac
for d in $libdirs "$fallback"; do
	for sub in slurm-wlm slurm; do
		if [ -d "$d/$sub" ]; then
			printf '%s\n' "$d/$sub"
			exit 0
		fi
	done
done
if [ -e /etc/debian_version ]; then
	printf '%s\n' "$fallback/slurm-wlm"
else
	printf '%s\n' "$fallback/slurm"
fi
