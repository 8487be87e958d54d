import { createRequire as __sauceCreateRequire } from 'node:module';
const require = __sauceCreateRequire(import.meta.url);
import{a,b}from"./chunk-GJZTQRTN.js";import"./chunk-ZP3TUFS4.js";import"./chunk-QVKAQHVJ.js";import"./chunk-S74SUYWC.js";import"./chunk-LC5F4MIW.js";import"./chunk-LQ4X2TR5.js";import"./chunk-S6LZZGEC.js";import"./chunk-7DOOPZ4R.js";import"./chunk-QQMVQEPJ.js";import"./chunk-XBPPTJU7.js";export{b as action,a as post};
