class Plugin:
    def run(self):
        return "run"

    def stop(self):
        return "stop"


plugin = Plugin()
print(getattr(plugin, "run")())
print(plugin.stop())
