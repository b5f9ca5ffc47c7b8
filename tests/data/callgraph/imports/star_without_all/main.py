from shapes import *

print(circle(1) + square(2))
