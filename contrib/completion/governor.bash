# bash completion for governor(1), installed as
# /usr/share/bash-completion/completions/governor.  The verbs and each
# verb's options come from the tool's own --help, so they cannot drift from
# the binary; the values of --sort, --by, --finding and --workers are the
# tool's (tests/tool/test_completion.sh holds them to its help).
_governor()
{
    local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD - 1]}
    local gov=${COMP_WORDS[0]} verb=${COMP_WORDS[1]} i
    COMPREPLY=()

    # After run's "--", the words are the command's own.
    for ((i = 2; i < COMP_CWORD; i++)); do
        if [[ $verb == run && ${COMP_WORDS[i]} == -- ]]; then
            ((i == COMP_CWORD - 1)) && COMPREPLY=($(compgen -c -- "$cur"))
            ((i < COMP_CWORD - 1)) && COMPREPLY=($(compgen -f -- "$cur"))
            return
        fi
    done
    if ((COMP_CWORD == 1)); then
        COMPREPLY=($(compgen -W "$("$gov" --help 2>/dev/null | awk '/^  [a-z]/ { print $1 }') --help --version" -- "$cur"))
        return
    fi
    case $prev in
    --sysroot | --probes) COMPREPLY=($(compgen -d -- "$cur")); return ;;
    --munge-socket) COMPREPLY=($(compgen -f -- "$cur")); return ;;
    --by) COMPREPLY=($(compgen -W "user job" -- "$cur")); return ;;
    --sort) COMPREPLY=($(compgen -W "job start elapsed cpu_eff mem_eff user" -- "$cur")); return ;;
    --finding)
        COMPREPLY=($(compgen -W "oom_killed memory_near_limit memory_underused cpu_underused throttled stalled memory_lowered timeout time_overrequested" -- "$cur"))
        return ;;
    --user) COMPREPLY=($(compgen -u -- "$cur")); return ;;
    --workers) COMPREPLY=($(compgen -W "numa" -- "$cur")); return ;;
    --get | --job | --since | --until | --count | --interval | --max-batch | --trusted-uid | --probe-timeout) return ;;
    esac
    if [[ $cur == -* ]]; then
        COMPREPLY=($(compgen -W "$("$gov" "$verb" --help 2>/dev/null | grep -o -- '--[a-z][a-z-]*' | sort -u) --help" -- "$cur"))
    elif [[ $verb == report ]]; then
        COMPREPLY=($(compgen -f -- "$cur"))
    fi
}
complete -F _governor governor
