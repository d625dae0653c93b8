<?php
require __DIR__ . '/../src/Roman.php';
