import { createRequire as __sauceCreateRequire } from 'node:module';
const require = __sauceCreateRequire(import.meta.url);
import{a,b}from"./chunk-FNTCC2GY.js";import"./chunk-K3D5RFA3.js";import"./chunk-CGUOUWND.js";import"./chunk-SB5FK4VI.js";import"./chunk-PS6IMN3F.js";import"./chunk-4PYPBIHA.js";import"./chunk-KKA7AQUK.js";import"./chunk-FC5NRJ7C.js";import"./chunk-7DOOPZ4R.js";import"./chunk-XBPPTJU7.js";export{b as action,a as post};
