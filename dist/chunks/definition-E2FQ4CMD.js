import { createRequire as __sauceCreateRequire } from 'node:module';
const require = __sauceCreateRequire(import.meta.url);
import{a}from"./chunk-WQYVGT4I.js";import"./chunk-OULGIBU3.js";import"./chunk-2I67XP2D.js";import"./chunk-NSEGEPDF.js";import"./chunk-XTLSWGKH.js";import"./chunk-YE3PJPS7.js";import"./chunk-FC5NRJ7C.js";import"./chunk-7DOOPZ4R.js";import"./chunk-XBPPTJU7.js";export{a as action};
