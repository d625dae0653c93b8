<?php

final class Temperature
{
    /** Degrees Celsius as Fahrenheit. */
    public static function toFahrenheit(float $celsius): float
    {
        return $celsius * 9 / 5 + 32;
    }
}
