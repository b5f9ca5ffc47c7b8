# The words zsh's completion system offers for a command line, one per line: an interactive zsh
# in a pseudo-terminal (zpty) loads the completion functions in DIR, records every compadd and
# completes the line once. Usage: zsh -f zsh_complete.zsh DIR 'anchorfs mount --view '
# (The markers are split in what is typed so the echo of the typed text never matches them.)
zmodload zsh/zpty
zpty z zsh -f -i
zpty -w z "PROMPT='' ; fpath=($1 \$fpath); autoload -U compinit; compinit -u -D"
zpty -w z 'compadd () { if [[ ${@[1,(i)(-|--)]} == *-(O|A|D)\ * ]]; then builtin compadd "$@"; return $?; fi; typeset -a __hits; builtin compadd -A __hits "$@"; local h; for h in $__hits; do print -r -- "<HI""T>$h</HI""T>"; done; builtin compadd "$@"; }'
zpty -w z '__anchorfs_done() { print -r -- "<EO""C>"; }; comppostfuncs=(__anchorfs_done)'
zpty -w z 'zle -C __capture complete-word _main_complete; bindkey "^G" __capture'
zpty -w -n z "$2"$'\C-g'
out=""
while zpty -r z chunk; do
  out+=$chunk
  [[ $out == *"<EOC>"* ]] && break
done
print -r -- "$out" | tr -d '\r' | sed -n 's/.*<HIT>\(.*\)<\/HIT>.*/\1/p' | sort -u
zpty -d z
