-- CreateTable
CREATE TABLE "catalogue_drafts" (
    "event_id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "outfits_json" TEXT NOT NULL,
    "revision" INTEGER NOT NULL,
    "updated_by" TEXT NOT NULL,
    "updated_at" TEXT NOT NULL
);

-- CreateTable
CREATE TABLE "catalogue_versions" (
    "event_id" INTEGER NOT NULL,
    "version" INTEGER NOT NULL,
    "outfits_json" TEXT NOT NULL,
    "published_by" TEXT NOT NULL,
    "published_at" TEXT NOT NULL,
    "rolled_back_from" INTEGER,
    "change_summary" TEXT NOT NULL,

    PRIMARY KEY ("event_id", "version")
);

-- CreateTable
CREATE TABLE "event_kiosks" (
    "event_id" INTEGER NOT NULL,
    "kiosk_id" INTEGER NOT NULL,
    "assigned_at" TEXT NOT NULL,

    PRIMARY KEY ("event_id", "kiosk_id")
);

-- CreateTable
CREATE TABLE "media_files" (
    "content_hash" TEXT NOT NULL PRIMARY KEY,
    "kind" TEXT NOT NULL,
    "telegram_file_id" TEXT NOT NULL,
    "created_at" TEXT NOT NULL
);

-- CreateIndex
CREATE INDEX "idx_event_kiosks_kiosk" ON "event_kiosks"("kiosk_id");

-- Today's eight outfits become the default event's catalogue version 1 (and its draft), so an
-- existing install offers exactly what it offered before. Every existing kiosk works for it.
INSERT INTO "catalogue_versions" ("event_id", "version", "outfits_json", "published_by", "published_at", "rolled_back_from", "change_summary")
VALUES (1, 1, '[{"id":"astronaut","emoji":"🚀","title":{"ru":"Космонавт","uz":"Kosmonavt","en":"Astronaut"},"prompt":"a white space suit with an orange mission patch and a round helmet visor pushed up","palette":{"background":["#1d2b64","#0b1026"],"body":"#f4f6fb","trim":"#ff7a1a"},"figure":"astronaut","preview":null},{"id":"superhero","emoji":"🦸","title":{"ru":"Супергерой","uz":"Superqahramon","en":"Superhero"},"prompt":"a bright red superhero suit with a yellow star emblem, a flowing cape and a small eye mask","palette":{"background":["#ffd23f","#ff8c42"],"body":"#d7263d","trim":"#ffd23f"},"figure":"superhero","preview":null},{"id":"chef","emoji":"👨‍🍳","title":{"ru":"Шеф-повар","uz":"Oshpaz","en":"Chef"},"prompt":"a white double-breasted chef''s jacket, a red neckerchief and a tall toque","palette":{"background":["#ffe8d6","#f4a261"],"body":"#ffffff","trim":"#e63946"},"figure":"chef","preview":null},{"id":"pirate","emoji":"🏴‍☠️","title":{"ru":"Пират","uz":"Qaroqchi","en":"Pirate"},"prompt":"a navy pirate coat with gold buttons, a striped shirt and a black tricorn hat","palette":{"background":["#8ecae6","#219ebc"],"body":"#1d3557","trim":"#f1c40f"},"figure":"pirate","preview":null},{"id":"wizard","emoji":"🧙","title":{"ru":"Волшебник","uz":"Sehrgar","en":"Wizard"},"prompt":"a deep purple wizard robe with silver stars and a tall pointed hat","palette":{"background":["#c77dff","#3c096c"],"body":"#5a189a","trim":"#e0e1dd"},"figure":"wizard","preview":null},{"id":"knight","emoji":"🛡️","title":{"ru":"Рыцарь","uz":"Ritsar","en":"Knight"},"prompt":"polished silver armour with a blue tabard and a plumed helmet","palette":{"background":["#a8dadc","#457b9d"],"body":"#b8c0cc","trim":"#1d4e89"},"figure":"knight","preview":null},{"id":"rockstar","emoji":"🎸","title":{"ru":"Рок-звезда","uz":"Rok yulduzi","en":"Rock star"},"prompt":"a black leather jacket with studs, a band T-shirt and star-shaped sunglasses","palette":{"background":["#ff4d6d","#590d22"],"body":"#1b1b1e","trim":"#c0c0c0"},"figure":"rockstar","preview":null},{"id":"chapan","emoji":"🎉","title":{"ru":"Праздничный чапан","uz":"Bayramona to''n","en":"Festive chapan"},"prompt":"a festive Uzbek chapan robe with ikat stripes and an embroidered doppi skullcap","palette":{"background":["#ffe066","#06a77d"],"body":"#7b2cbf","trim":"#f77f00"},"figure":"chapan","preview":null}]', 'migration', strftime('%Y-%m-%dT%H:%M:%fZ', 'now'), NULL, 'The eight built-in outfits.');
INSERT INTO "catalogue_drafts" ("event_id", "outfits_json", "revision", "updated_by", "updated_at")
VALUES (1, '[{"id":"astronaut","emoji":"🚀","title":{"ru":"Космонавт","uz":"Kosmonavt","en":"Astronaut"},"prompt":"a white space suit with an orange mission patch and a round helmet visor pushed up","palette":{"background":["#1d2b64","#0b1026"],"body":"#f4f6fb","trim":"#ff7a1a"},"figure":"astronaut","preview":null},{"id":"superhero","emoji":"🦸","title":{"ru":"Супергерой","uz":"Superqahramon","en":"Superhero"},"prompt":"a bright red superhero suit with a yellow star emblem, a flowing cape and a small eye mask","palette":{"background":["#ffd23f","#ff8c42"],"body":"#d7263d","trim":"#ffd23f"},"figure":"superhero","preview":null},{"id":"chef","emoji":"👨‍🍳","title":{"ru":"Шеф-повар","uz":"Oshpaz","en":"Chef"},"prompt":"a white double-breasted chef''s jacket, a red neckerchief and a tall toque","palette":{"background":["#ffe8d6","#f4a261"],"body":"#ffffff","trim":"#e63946"},"figure":"chef","preview":null},{"id":"pirate","emoji":"🏴‍☠️","title":{"ru":"Пират","uz":"Qaroqchi","en":"Pirate"},"prompt":"a navy pirate coat with gold buttons, a striped shirt and a black tricorn hat","palette":{"background":["#8ecae6","#219ebc"],"body":"#1d3557","trim":"#f1c40f"},"figure":"pirate","preview":null},{"id":"wizard","emoji":"🧙","title":{"ru":"Волшебник","uz":"Sehrgar","en":"Wizard"},"prompt":"a deep purple wizard robe with silver stars and a tall pointed hat","palette":{"background":["#c77dff","#3c096c"],"body":"#5a189a","trim":"#e0e1dd"},"figure":"wizard","preview":null},{"id":"knight","emoji":"🛡️","title":{"ru":"Рыцарь","uz":"Ritsar","en":"Knight"},"prompt":"polished silver armour with a blue tabard and a plumed helmet","palette":{"background":["#a8dadc","#457b9d"],"body":"#b8c0cc","trim":"#1d4e89"},"figure":"knight","preview":null},{"id":"rockstar","emoji":"🎸","title":{"ru":"Рок-звезда","uz":"Rok yulduzi","en":"Rock star"},"prompt":"a black leather jacket with studs, a band T-shirt and star-shaped sunglasses","palette":{"background":["#ff4d6d","#590d22"],"body":"#1b1b1e","trim":"#c0c0c0"},"figure":"rockstar","preview":null},{"id":"chapan","emoji":"🎉","title":{"ru":"Праздничный чапан","uz":"Bayramona to''n","en":"Festive chapan"},"prompt":"a festive Uzbek chapan robe with ikat stripes and an embroidered doppi skullcap","palette":{"background":["#ffe066","#06a77d"],"body":"#7b2cbf","trim":"#f77f00"},"figure":"chapan","preview":null}]', 0, 'migration', strftime('%Y-%m-%dT%H:%M:%fZ', 'now'));
INSERT INTO "event_kiosks" ("event_id", "kiosk_id", "assigned_at")
SELECT 1, "id", strftime('%Y-%m-%dT%H:%M:%fZ', 'now') FROM "kiosks";
