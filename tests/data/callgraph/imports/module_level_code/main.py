import settings

print(settings.DEFAULTS, settings.NAME, settings.env_name())
