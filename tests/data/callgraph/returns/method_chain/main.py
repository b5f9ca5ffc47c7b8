import factory

print(factory.select("users").where("age > 3").where("name = 'x'").sql())
