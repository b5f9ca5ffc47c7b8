package plugin

func Other() {}
