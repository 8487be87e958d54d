import { createRequire as __sauceCreateRequire } from 'node:module';
const require = __sauceCreateRequire(import.meta.url);
import{a,b}from"./chunk-DKTAMSEH.js";import"./chunk-K3D5RFA3.js";import"./chunk-B5MY6YA4.js";import"./chunk-CMG3DWNG.js";import"./chunk-QEKXAAUP.js";import"./chunk-2I67XP2D.js";import"./chunk-NSEGEPDF.js";import"./chunk-XTLSWGKH.js";import"./chunk-YE3PJPS7.js";import"./chunk-FC5NRJ7C.js";import"./chunk-7DOOPZ4R.js";import"./chunk-XBPPTJU7.js";export{b as action,a as post};
