#!/usr/bin/env bash
# The bash completion shipped for governor (contrib/completion/governor.bash),
# loaded into bash as bash-completion loads it and asked what a user's TAB
# would ask: the verbs, a verb's options (from the tool's own --help), the
# values of --sort, --by and --finding (held here to what the tool says and
# accepts), and a command after run's "--".
# usage: test_completion.sh GOVERNOR SRC
set -uo pipefail
gov=$1 src=$2
# shellcheck source=../lib/assert.sh
source "$(dirname "$0")/../lib/assert.sh"
# shellcheck source=../../contrib/completion/governor.bash
source "$src/contrib/completion/governor.bash"

# complete WORDS...: what TAB offers for the last word, sorted, one line.
complete_words() {
  COMP_WORDS=("$gov" "$@")
  COMP_CWORD=$#
  _governor
  printf '%s\n' "${COMPREPLY[@]}" | sort | tr '\n' ' ' | sed 's/ $//'
}

check "the verbs" "--help --version doctor plan report run snapshot verify watch" "$(complete_words '')"
check "a verb by its start" "report run" "$(complete_words r)"
check "snapshot's options, from its --help" "--get --help --json --require-descriptor --sysroot" \
  "$(complete_words snapshot --)"
check "report's sort keys" "cpu_eff elapsed job mem_eff start user" "$(complete_words report --sort '')"
for key in $(complete_words report --sort ''); do
  "$gov" report --sort "$key" "$src/tests/fixtures/report" >/dev/null 2>&1
  check "--sort $key: the tool takes it" 0 $?
done
findings=$("$gov" report --help | sed -n '/^Findings:/,/\.$/p' | sed 's/^Findings://' | tr ',.\n' '   ' |
  tr -s ' ' '\n' | grep . | sort | tr '\n' ' ' | sed 's/ $//')
check "report's findings, as its --help lists them" "$findings" "$(complete_words report --finding '')"
check "--by" "job user" "$(complete_words report --by '')"
check "after run's --, a command" "true" "$(complete_words run -- tru | tr ' ' '\n' | grep -x true | sort -u)"
finish
