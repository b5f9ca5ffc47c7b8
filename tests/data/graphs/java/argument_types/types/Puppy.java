package types;

class Puppy extends Dog {}
