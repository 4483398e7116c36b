#!/usr/bin/env bash
# The zsh completion shipped for governor (contrib/completion/_governor):
# compinit registers it for governor, and it offers what the bash one
# offers (test_completion.sh): the verbs, a verb's options from the tool's
# own --help, the values of --sort, --by and --finding, directories for
# --sysroot, and after run's "--" the command's own completion.
# usage: test_completion_zsh.sh GOVERNOR ZSH SRC
set -uo pipefail
gov=$1 zsh=$2 src=$3
file=$src/contrib/completion/_governor
# shellcheck source=../lib/assert.sh
source "$(dirname "$0")/../lib/assert.sh"

# complete WORDS...: what TAB offers for the last word, sorted, one line.
complete_words() {
  "$zsh" -f "$(dirname "$0")/zsh_complete.zsh" "$file" "$gov" "$@" | sort | tr '\n' ' ' | sed 's/ $//'
}

# shellcheck disable=SC2016 # expanded by zsh
check "compinit registers it for governor" "_governor" \
  "$("$zsh" -f -c 'fpath=("$1" $fpath); autoload -U compinit; compinit -u -D; print -r -- ${_comps[governor]}' \
     _ "$src/contrib/completion")"
check "the verbs" "--help --version doctor plan report run snapshot verify watch" "$(complete_words '')"
check "snapshot's options, from its --help" "--get --help --json --require-descriptor --sysroot" \
  "$(complete_words snapshot --)"
check "report's sort keys" "cpu_eff elapsed job mem_eff start user" "$(complete_words report --sort '')"
check "--by" "job user" "$(complete_words report --by '')"
bash_findings=$(bash -c 'source "$1/contrib/completion/governor.bash"; COMP_WORDS=("$2" report --finding ""); COMP_CWORD=3; _governor; printf "%s\n" "${COMPREPLY[@]}" | sort | tr "\n" " " | sed "s/ $//"' _ "$src" "$gov")
check "--finding: as the bash completion offers" "$bash_findings" "$(complete_words report --finding '')"
check "--sysroot: directories" "<directories>" "$(complete_words snapshot --sysroot '')"
check "report's files" "<files>" "$(complete_words report '')"
check "after run's --, the command's own completion" "<command tru at 1>" "$(complete_words run -- tru)"
finish
