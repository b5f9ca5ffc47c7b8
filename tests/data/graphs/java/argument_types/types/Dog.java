package types;

class Dog extends Animal {}
