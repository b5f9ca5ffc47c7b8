package types;

class Animal {}
