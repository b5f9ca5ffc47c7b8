package zoo;

public interface Named {
  String name();
}
