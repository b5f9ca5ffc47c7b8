package plugin

func init() { register() }

func register() {}
