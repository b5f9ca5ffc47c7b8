package zoo.dogs;

import zoo.Animal;
import zoo.Pet;

public class Dog extends Animal implements Pet {
  public String sound() {
    return "woof";
  }

  public int compareTo(Pet other) {
    return name().compareTo(other.name());
  }

  static class Puppy extends Dog {}
}
