import { createRequire as __sauceCreateRequire } from 'node:module';
const require = __sauceCreateRequire(import.meta.url);
import{a,b}from"./chunk-GL3SJUOW.js";import"./chunk-K3D5RFA3.js";import"./chunk-X4QSNU62.js";import"./chunk-VV7JTNUB.js";import"./chunk-KHJYEAQH.js";import"./chunk-UEWXFHYP.js";import"./chunk-GRI4FHSZ.js";import"./chunk-DHOSGSHR.js";import"./chunk-PJ7S4EU2.js";import"./chunk-FC5NRJ7C.js";import"./chunk-7DOOPZ4R.js";import"./chunk-XBPPTJU7.js";export{b as action,a as post};
