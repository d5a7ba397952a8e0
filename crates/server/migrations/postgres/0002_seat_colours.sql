-- Each seat's colour, chosen when the game is created (a palette name).
ALTER TABLE seats ADD COLUMN colour TEXT;
