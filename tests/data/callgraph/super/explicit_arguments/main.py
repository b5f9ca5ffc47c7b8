class Parent:
    def render(self):
        return "parent"


class Kid(Parent):
    def render(self):
        return "kid+" + super(Kid, self).render()


print(Kid().render())
