package zoo;

public class Keeper {
  void feed() {
    zoo.dogs.Dog dog = new zoo.dogs.Dog();
    dog.sound();
    Animal animal = dog;
    animal.sound();
  }
}
