import pkg.sub.mod
import pkg.sub.mod as alias

print(pkg.sub.mod.func(), alias.other())
