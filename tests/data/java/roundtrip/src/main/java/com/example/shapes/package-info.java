/**
 * Shapes and their areas.
 */
@Deprecated(
    since = "2")
package com.example.shapes;
