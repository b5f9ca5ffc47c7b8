from ping import ping

print(ping(3))
