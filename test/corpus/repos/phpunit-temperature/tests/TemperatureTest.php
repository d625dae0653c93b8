<?php

use PHPUnit\Framework\TestCase;

final class TemperatureTest extends TestCase
{
    public function testFreezing(): void
    {
        $this->assertSame(32.0, Temperature::toFahrenheit(0));
    }

    public function testBoiling(): void
    {
        $this->assertSame(212.0, Temperature::toFahrenheit(100));
    }

    public function testMinusForty(): void
    {
        $this->assertSame(-40.0, Temperature::toFahrenheit(-40));
    }
}
