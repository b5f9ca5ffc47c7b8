from pkg import runner

print(runner.run(" abc "))
