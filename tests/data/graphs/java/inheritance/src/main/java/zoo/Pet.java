package zoo;

public interface Pet extends Named, Comparable<Pet> {}
