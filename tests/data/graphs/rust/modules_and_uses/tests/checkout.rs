use shop_core::Cart;

#[test]
fn checks_out() {
    let cart = Cart::new();
    cart.submit();
    shop_core::checkout(&[1]);
}
