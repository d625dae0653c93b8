<?php

use PHPUnit\Framework\TestCase;

final class RomanTest extends TestCase
{
    /** @dataProvider numbers */
    public function testFromInt(int $n, string $roman): void
    {
        $this->assertSame($roman, Roman::fromInt($n));
    }

    public static function numbers(): array
    {
        return ['one' => [1, 'I'], 'four' => [4, 'IV'], 'nine' => [9, 'IX'], 'year' => [1994, 'MCMXCIV']];
    }
}
