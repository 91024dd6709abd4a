/**
 * The words the demo generator (demo-records.ts) builds records from: people, companies, the
 * cities they sit in (with the country's phone prefix, language and a few real street names) and
 * a product catalogue of a heating and ventilation business, the trade the demo pack's entities
 * (equipment, work orders, invoices) describe.
 */

export const FIRST_NAMES: ReadonlyArray<readonly [string, 'm' | 'f']> = [
  ['Anna', 'f'], ['Ben', 'm'], ['Clara', 'f'], ['David', 'm'], ['Eva', 'f'], ['Filip', 'm'], ['Greta', 'f'], ['Hugo', 'm'],
  ['Ines', 'f'], ['Jonas', 'm'], ['Katarina', 'f'], ['Lukas', 'm'], ['Mira', 'f'], ['Noah', 'm'], ['Olga', 'f'], ['Peter', 'm'],
];
export const LAST_NAMES = ['Novak', 'Schmidt', 'Horvath', 'Muller', 'Kovac', 'Weber', 'Varga', 'Fischer', 'Balaz', 'Wagner', 'Toth', 'Becker'];

/** Account names are COMPANY x KIND; a lead's company comes from LEAD_COMPANY, so no lead is an existing account. */
export const COMPANY = ['Alpine', 'Blue River', 'Cedar', 'Danube', 'Evergreen', 'Falcon', 'Granite', 'Harbor', 'Iron Peak', 'Juniper', 'Kestrel', 'Lumen'];
export const LEAD_COMPANY = ['Nordic', 'Orion', 'Pannonia', 'Quartz', 'Riverside', 'Summit', 'Tatra', 'Vltava'];
/** The second word of a company name, with the industry (option value of account.industry) it suggests. */
export const KIND: ReadonlyArray<readonly [string, number]> = [
  ['Systems', 3], ['Logistics', 3], ['Foods', 2], ['Energy', 1], ['Works', 4], ['Partners', 3], ['Labs', 6], ['Trading', 2],
];

export type City = {
  name: string;
  country: string;
  zips: readonly string[];
  latitude: number;
  longitude: number;
  /** Landline prefix and mobile prefix, as dialled from abroad. */
  phone: string;
  mobile: string;
  /** The option value of contact.languages spoken there. */
  language: number;
  streets: readonly string[];
};

export const CITIES: readonly City[] = [
  { name: 'Bratislava', country: 'Slovakia', zips: ['811 01', '821 08', '831 04'], latitude: 48.1486, longitude: 17.1077, phone: '+421 2', mobile: '+421 9', language: 2, streets: ['Obchodná', 'Štúrova', 'Mlynské nivy', 'Karadžičova', 'Prievozská'] },
  { name: 'Vienna', country: 'Austria', zips: ['1010', '1030', '1060'], latitude: 48.2082, longitude: 16.3738, phone: '+43 1', mobile: '+43 6', language: 1, streets: ['Mariahilfer Straße', 'Landstraßer Hauptstraße', 'Wiedner Gürtel', 'Praterstraße'] },
  { name: 'Brno', country: 'Czechia', zips: ['602 00', '612 00', '639 00'], latitude: 49.1951, longitude: 16.6068, phone: '+420 5', mobile: '+420 7', language: 3, streets: ['Masarykova', 'Husova', 'Kounicova', 'Cejl'] },
  { name: 'Munich', country: 'Germany', zips: ['80331', '80335', '81671'], latitude: 48.1351, longitude: 11.582, phone: '+49 89', mobile: '+49 15', language: 1, streets: ['Leopoldstraße', 'Sonnenstraße', 'Landsberger Straße', 'Rosenheimer Straße'] },
  { name: 'Košice', country: 'Slovakia', zips: ['040 01', '040 11', '040 22'], latitude: 48.7164, longitude: 21.2611, phone: '+421 55', mobile: '+421 9', language: 2, streets: ['Hlavná', 'Južná trieda', 'Moldavská cesta', 'Štúrova'] },
  { name: 'Graz', country: 'Austria', zips: ['8010', '8020', '8041'], latitude: 47.0707, longitude: 15.4395, phone: '+43 316', mobile: '+43 6', language: 1, streets: ['Herrengasse', 'Annenstraße', 'Conrad-von-Hötzendorf-Straße', 'Elisabethstraße'] },
];

export const JOB_TITLES = ['Managing Director', 'Purchasing Manager', 'Facility Manager', 'Technical Director', 'Office Manager', 'Accountant', 'Operations Manager', 'Maintenance Lead'];

/** Option values of product.category. */
export const HARDWARE = 1;
export const SOFTWARE = 2;
export const SERVICE = 3;
export const SPARE_PART = 4;

export type CatalogueItem = { name: string; category: number; listprice: number; unit: string; weight?: number; warrantyYears?: number; code: string };

/** The demo's product list: what equipment is, what opportunities sell and what work orders bill. */
export const CATALOGUE: readonly CatalogueItem[] = [
  { name: 'Heat Pump HP-8', category: HARDWARE, listprice: 6900, unit: 'pcs', weight: 98, warrantyYears: 5, code: 'HP8' },
  { name: 'Heat Pump HP-12', category: HARDWARE, listprice: 8900, unit: 'pcs', weight: 126, warrantyYears: 5, code: 'HP12' },
  { name: 'Air Handling Unit AHU-2', category: HARDWARE, listprice: 12400, unit: 'pcs', weight: 310, warrantyYears: 3, code: 'AHU2' },
  { name: 'Condensing Boiler 24 kW', category: HARDWARE, listprice: 2350, unit: 'pcs', weight: 38, warrantyYears: 2, code: 'CB24' },
  { name: 'Solar Inverter 10 kW', category: HARDWARE, listprice: 1890, unit: 'pcs', weight: 24, warrantyYears: 5, code: 'SI10' },
  { name: 'Battery Storage 10 kWh', category: HARDWARE, listprice: 5200, unit: 'pcs', weight: 110, warrantyYears: 5, code: 'BS10' },
  { name: 'Smart Thermostat', category: HARDWARE, listprice: 189, unit: 'pcs', weight: 0.4, warrantyYears: 2, code: 'ST1' },
  { name: 'Ventilation Unit VU-300', category: HARDWARE, listprice: 2790, unit: 'pcs', weight: 45, warrantyYears: 3, code: 'VU300' },
  { name: 'Building Monitor (yearly licence)', category: SOFTWARE, listprice: 480, unit: 'year', code: 'BM' },
  { name: 'Energy Dashboard (yearly licence)', category: SOFTWARE, listprice: 360, unit: 'year', code: 'ED' },
  { name: 'Remote Diagnostics (yearly licence)', category: SOFTWARE, listprice: 240, unit: 'year', code: 'RD' },
  { name: 'Labour (hour)', category: SERVICE, listprice: 65, unit: 'h', code: 'LAB' },
  { name: 'Service Visit', category: SERVICE, listprice: 120, unit: 'visit', code: 'SV' },
  { name: 'Annual Maintenance', category: SERVICE, listprice: 390, unit: 'visit', code: 'AM' },
  { name: 'Commissioning', category: SERVICE, listprice: 450, unit: 'visit', code: 'COM' },
  { name: 'Safety Inspection', category: SERVICE, listprice: 180, unit: 'visit', code: 'SI' },
  { name: 'Filter Set F7', category: SPARE_PART, listprice: 45, unit: 'pcs', weight: 1.2, code: 'F7' },
  { name: 'Circulation Pump', category: SPARE_PART, listprice: 310, unit: 'pcs', weight: 3.5, code: 'CP' },
  { name: 'Expansion Vessel 18 l', category: SPARE_PART, listprice: 95, unit: 'pcs', weight: 4.1, code: 'EV18' },
  { name: 'Pressure Sensor', category: SPARE_PART, listprice: 68, unit: 'pcs', weight: 0.2, code: 'PS' },
];

export const LEAD_TOPICS = ['heat pumps for a new office', 'a maintenance contract', 'ventilation for a warehouse', 'solar power and storage', 'remote monitoring', 'replacing old boilers'];

export const VILLAGES: ReadonlyArray<readonly [string, string, number]> = [
  ['Jarovnice', 'Sabinov', 7200], ['Lomnička', 'Stará Ľubovňa', 2900], ['Rudňany', 'Spišská Nová Ves', 3800], ['Stráne pod Tatrami', 'Kežmarok', 2600],
  ['Zborov', 'Bardejov', 3300], ['Richnava', 'Gelnica', 2700], ['Moldava nad Bodvou', 'Košice-okolie', 11000], ['Svinia', 'Prešov', 3700],
];

/** Budget line types of the family budget: [name, category, type (1 in, 2 out), typical monthly amount]. */
export const BUDGET_LINE_TYPES: ReadonlyArray<readonly [string, string, 1 | 2, number]> = [
  ['Salary', 'Work', 1, 1100], ['Child benefit', 'Benefits', 1, 60], ['Pension', 'Benefits', 1, 520], ['Rent', 'Housing', 2, 420],
  ['Energy', 'Housing', 2, 130], ['Food', 'Household', 2, 380], ['Transport', 'Household', 2, 70], ['Loan repayment', 'Debt', 2, 150],
];
