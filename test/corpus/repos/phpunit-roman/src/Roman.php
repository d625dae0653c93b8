<?php

final class Roman
{
    private const NUMERALS = [
        'M' => 1000, 'CM' => 900, 'D' => 500, 'CD' => 400, 'C' => 100, 'XC' => 90,
        'L' => 50, 'XL' => 40, 'X' => 10, 'IX' => 9, 'V' => 5, 'IV' => 4, 'I' => 1,
    ];

    /** A positive integer in Roman numerals. */
    public static function fromInt(int $n): string
    {
        $out = '';
        foreach (self::NUMERALS as $numeral => $value) {
            while ($n >= $value) {
                $out .= $numeral;
                $n -= $value;
            }
        }
        return $out;
    }
}
