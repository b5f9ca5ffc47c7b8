import a
import b

print(a.alpha(), a.beta(), b.gamma(), sorted(a.registry.items))
