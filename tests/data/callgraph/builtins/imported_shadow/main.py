import builtins

from files import open

handle = open("a.txt")
builtins.print(handle, len(handle))
