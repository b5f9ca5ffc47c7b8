mod wire;

pub fn send(value: u32) {
    wire::encode(value);
    self::wire::flush();
}
