SELECT current_setting($1);
