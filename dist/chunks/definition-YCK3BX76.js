import { createRequire as __sauceCreateRequire } from 'node:module';
const require = __sauceCreateRequire(import.meta.url);
import{a,b}from"./chunk-UIJCRMJT.js";import"./chunk-YLC4OUOD.js";import"./chunk-COP5SXYK.js";import"./chunk-DPYW5DL6.js";import"./chunk-TGFN7D32.js";import"./chunk-VZFQO3NK.js";import"./chunk-DHOSGSHR.js";import"./chunk-PJ7S4EU2.js";import"./chunk-FC5NRJ7C.js";import"./chunk-7DOOPZ4R.js";import"./chunk-XBPPTJU7.js";export{b as action,a as post};
