# zsh_complete.zsh FILE GOVERNOR WORDS...: what the zsh completion FILE
# (contrib/completion/_governor) offers for the last of WORDS, one per line,
# run as compsys runs it: words, CURRENT and PREFIX set, compadd collecting.
# compsys's own helpers print what they would offer: <files>,
# <directories>, <users>, and <command NAME at N> for _normal.
emulate -L zsh
file=$1 gov=$2
shift 2
words=("$gov" "$@")
CURRENT=${#words}
PREFIX=${words[CURRENT]}
compadd() { if [[ $1 == -a ]]; then print -rl -- "${(@P)2}"; else print -rl -- "$@"; fi }
_files() { print -r -- '<files>' }
_directories() { print -r -- '<directories>' }
_users() { print -r -- '<users>' }
_normal() { print -r -- "<command ${words[1]} at $CURRENT>" }
source "$file"
