package zoo.cats;

public class Cat extends zoo.Animal {
  public String sound() {
    return "meow";
  }

  class Kitten extends Cat {}
}
