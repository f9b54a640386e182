# bash completion for mmtree -*- shell-script -*-
# Subcommands come from 'mmtree --help' and each subcommand's options from
# its own --help, so the completion follows the program it completes.

_mmtree()
{
    local cur prev words cword
    _init_completion || return

    if ((cword == 1)); then
        local cmds
        cmds=$("$1" --help 2>/dev/null | awk '/^commands:/ {on = 1; next} on && /^  [a-z]/ {print $1}')
        COMPREPLY=($(compgen -W "$cmds --help --version" -- "$cur"))
        return
    fi

    local cmd=${words[1]}
    case $prev in
        -r | --rule)
            COMPREPLY=($(compgen -W "naive knuth irving entropy kooi branch2 e3 optimal
                optimal-consistent optimal-worst" -- "$cur"))
            return ;;
        -f | --format)
            COMPREPLY=($(compgen -W "knuth irving xml bin svg png pdf dot html" -- "$cur"))
            return ;;
        --layout)
            COMPREPLY=($(compgen -W "tree radial" -- "$cur"))
            return ;;
        -p | --pegs | -c | --colors | -j | --threads | --time-limit | --first | --path | \
            --depth | --max-nodes | --secret | --seed | --max-problems | -m | --min-codes)
            return ;;
    esac
    if [[ $cur == -* ]]; then
        local opts
        opts=$("$1" "$cmd" --help 2>/dev/null | grep -oE -- '--[a-z][a-z0-9-]*' | sort -u)
        COMPREPLY=($(compgen -W "$opts" -- "$cur"))
        return
    fi
    _filedir
}
complete -F _mmtree mmtree
